// Band edges and minutes as the heatmap labels them; a band without an upper edge is open-ended (∞).

export function millisText(millis) {
  if (millis === null || millis === undefined) {
    return '∞';
  }
  if (millis >= 1000) {
    return (millis / 1000).toFixed(millis >= 10000 ? 0 : 1) + ' s';
  }
  return (millis >= 10 ? millis.toFixed(0) : millis >= 1 ? millis.toFixed(1) : millis.toFixed(2)) + ' ms';
}

export function minuteText(epochMillis) {
  const date = new Date(epochMillis);
  return String(date.getHours()).padStart(2, '0') + ':' + String(date.getMinutes()).padStart(2, '0');
}

// Light to dark blue by the log of the count, so one busy minute does not wash out the rest.
export function cellColour(count, most) {
  const share = Math.log(count + 1) / Math.log(most + 1);
  const light = [226, 236, 250];
  const dark = [8, 48, 130];
  return 'rgb(' + light.map((from, i) => Math.round(from + (dark[i] - from) * share)).join(',') + ')';
}
