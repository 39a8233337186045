// Frame names as a reader sees them: a stable hash for colours and URLs, the class for shading, and Class.method
// when the whole name does not fit.

export function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

export function className(name) {
  const paren = name.indexOf('(');
  const plain = paren > 0 ? name.slice(0, paren) : name;
  const dot = plain.lastIndexOf('.');
  return dot > 0 ? plain.slice(0, dot) : plain;
}

// Class.method: what a reader recognises when the whole name does not fit.
export function shortName(name) {
  // Bracketed names are not methods but what a thread waited on, or the profiler's placeholders: whole or nothing.
  if (name.charAt(0) === '[') {
    return name;
  }
  const paren = name.indexOf('(');
  const plain = paren > 0 ? name.slice(0, paren) : name;
  const method = plain.lastIndexOf('.');
  if (method <= 0) {
    return name;
  }
  let type = plain.lastIndexOf('.', method - 1);
  // A lambda's hidden class ends in its address (Outer$$Lambda.0x00007f...): keep the outer class too.
  if (type > 0 && plain.startsWith('0x', type + 1)) {
    type = plain.lastIndexOf('.', type - 1);
  }
  return type >= 0 ? name.slice(type + 1) : name;
}

// A regular expression matching exactly this name.
export function exactPattern(name) {
  return '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
}
