/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: false }],
  },
  // The package's own name resolves to the sources, so README examples compile and run as users write them.
  moduleNameMapper: { '^cdk8s-node-services$': '<rootDir>/src/index.ts' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
