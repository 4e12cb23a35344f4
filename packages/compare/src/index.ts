export * from './stats/index.js';
