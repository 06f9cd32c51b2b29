/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
