import { ancestorsOf } from './tree.mjs';
import { hashString } from './names.mjs';

// The view's state in the URL fragment (view, sandwiched function, a diff's colouring, zoom, search, follow): a
// view can be shared or bookmarked, survives the reloads of follow mode, and nothing of it is sent to the server.
// The zoom is kept as a hash of the frame names on its path, so it finds the same frame in a newer profile, whose
// node numbers differ.

const SEED = 0x811c9dc5;
const PRIME = 0x01000193;

export function pathKey(g, names, node) {
  let h = SEED;
  ancestorsOf(g, node).forEach((i) => {
    h = Math.imul(h ^ hashString(names[g.n[i]]), PRIME) >>> 0;
  });
  return h.toString(16);
}

// The node whose path has this key, or the root when none has.
export function findByKey(g, names, key) {
  const hashes = new Uint32Array(g.count);
  for (let i = 0; i < g.count; i++) {
    const base = g.parent[i] >= 0 ? hashes[g.parent[i]] : SEED;
    hashes[i] = Math.imul(base ^ hashString(names[g.n[i]]), PRIME) >>> 0;
    if (hashes[i].toString(16) === key) {
      return i;
    }
  }
  return 0;
}

// The fragment for a state: { view, functionName, normalisation (null outside a diff), zoomKey, search, follow };
// defaults are left out, so the plain graph has an empty fragment.
export function fragmentOf(state) {
  const params = new URLSearchParams();
  if (state.view !== 'top-down') {
    params.set('view', state.view);
  }
  if (state.view === 'sandwich') {
    params.set('function', hashString(state.functionName).toString(16));
  }
  if (state.normalisation && state.normalisation !== 'request') {
    params.set('colour', state.normalisation);
  }
  if (state.zoomKey) {
    params.set('zoom', state.zoomKey);
  }
  if (state.search) {
    params.set('search', state.search);
  }
  if (state.follow) {
    params.set('follow', '1');
  }
  return params.toString();
}

// What a fragment (without its '#') asks for; a sandwich names its function by the hash of its name.
export function readFragment(fragment) {
  const params = new URLSearchParams(fragment);
  const view = params.get('view');
  return { view: view === 'bottom-up' || view === 'sandwich' ? view : 'top-down', zoom: params.get('zoom'),
    search: params.get('search') || '', follow: params.get('follow') === '1',
    sandwich: view === 'sandwich' ? params.get('function') : null,
    normalisation: params.get('colour') === 'share' ? 'share' : 'request' };
}

// The name id whose hash is in a fragment's function parameter, or -1.
export function functionOf(names, hash) {
  return names.findIndex((name) => hashString(name).toString(16) === hash);
}
