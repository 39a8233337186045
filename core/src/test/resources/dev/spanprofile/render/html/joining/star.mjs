import * as everything from './a.mjs';
