import { shortName } from './names.mjs';
import { percent } from './format.mjs';

// Search: a case-insensitive regular expression over frame names; text that is no valid expression is searched
// for as typed. Matching is per name, so a search costs one pass over the names, not over the frames.

export function compileSearch(text) {
  if (!text) {
    return { regex: null, literal: false };
  }
  try {
    return { regex: new RegExp(text, 'i'), literal: false };
  } catch (e) {
    return { regex: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), literal: true };
  }
}

// Fills matches (one flag per name) and returns how many names match.
export function matchNames(names, regex, matches) {
  matches.fill(0);
  let count = 0;
  if (regex !== null) {
    for (let i = 0; i < names.length; i++) {
      if (regex.test(names[i])) {
        matches[i] = 1;
        count++;
      }
    }
  }
  return count;
}

// The weight under root in matching frames, each sample counted once however many matching frames its stack has;
// the outermost matches are pushed to outermost (when given), to step through.
export function matchedSamples(g, nameMatches, root, outermost) {
  for (let a = g.parent[root]; a >= 0; a = g.parent[a]) {
    if (nameMatches[g.n[a]]) {
      return g.total[root];
    }
  }
  let sum = 0;
  const end = root + g.size[root];
  for (let i = root; i < end; i++) {
    if (nameMatches[g.n[i]]) {
      sum += g.total[i];
      if (outermost) {
        outermost.push(i);
      }
      i += g.size[i] - 1;
    }
  }
  return sum;
}

// The line beside the search field: the share of samples in matching frames (of the profile or samples, and of the
// zoom), how many places match and which one was stepped to; in a sandwich, the share of the function's own time
// (its callees half is a tree of its own). Fills matches with the outermost matching nodes, to step through.
export function matchSummary(g, view, nameMatches, matches, names) {
  matches.length = 0;
  if (view.view === 'sandwich') {
    const callees = g.callees;
    return { text: 'Matched: ' + percent(matchedSamples(callees, nameMatches, 0, null), callees.total[0]) + ' of '
      + shortName(names[view.sandwich]) + '\'s time', hit: true };
  }
  const all = matchedSamples(g, nameMatches, 0, matches);
  let text = 'Matched: ' + percent(all, g.total[0]) + ' of ' + (view.view === 'top-down' ? 'the profile' : 'samples');
  if (view.zoom !== 0) {
    text += ' · ' + percent(matchedSamples(g, nameMatches, view.zoom, null), g.total[view.zoom]) + ' of zoom';
  }
  text += ' · ' + matches.length + (matches.length === 1 ? ' place' : ' places');
  if (view.matchIndex >= 0) {
    text += ' (' + (view.matchIndex + 1) + ' of ' + matches.length + ')';
  }
  return { text, hit: matches.length > 0 };
}
