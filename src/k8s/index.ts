export * from './names';
export * from './quantity';
export * from './intstr';
export * from './image';
export * from './paths';
