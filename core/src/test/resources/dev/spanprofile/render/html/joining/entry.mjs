import { b } from './b.mjs';
import { a } from './a.mjs';

export const entry = a + b;
