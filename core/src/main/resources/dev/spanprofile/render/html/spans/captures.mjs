// The span list's captures: a form that starts one (POST to the endpoint, the list's own address) and a button
// beside each one in progress that cancels it (DELETE). The endpoint checks every field and says what is wrong with a
// 400; the page shows its message, and reloads the list once the change is made.

// What the form posts: the endpoint's flat keys. A count that is a whole number goes as a number, anything else as
// typed, for the endpoint to name it.
export function captureBody(name, count, within) {
  const countText = count.trim();
  return {
    capture: name.trim(),
    count: /^[0-9]{1,9}$/.test(countText) ? Number(countText) : countText,
    within: within.trim()
  };
}

// What to say of a refused request: the endpoint's message when it sent one, else what the status means here.
export function failureText(status, bodyText) {
  try {
    const body = JSON.parse(bodyText);
    if (body && typeof body.message === 'string' && body.message) {
      return body.message;
    }
  } catch (e) {
    // Not the endpoint's JSON: a proxy's or the security layer's page.
  }
  if (status === 401 || status === 403) {
    return 'Refused (' + status + '): the application\'s security rules decide who may start a capture, '
      + 'and may ask for a CSRF token this page does not send.';
  }
  if (status === 405) {
    return 'Refused (405): the endpoint is read-only here (management.endpoint.spanprofile.access).';
  }
  return 'Failed (' + status + ').';
}

// The address of the endpoint: the list's own, without its query.
export function endpointAddress(location) {
  return location.pathname;
}

export function createCaptures(section, { send, reload, address }) {
  const form = section.querySelector('#capture-form');
  const status = section.querySelector('#capture-status');
  const say = (text, failed) => {
    status.textContent = text;
    status.classList.toggle('failed', failed);
  };
  const request = (method, url, body) => send(url, {
    method,
    headers: body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
    body: body ? JSON.stringify(body) : undefined
  }).then((response) => response.ok ? reload()
    : response.text().then((text) => say(failureText(response.status, text), true)),
  (error) => say('Could not reach the application: ' + error.message, true));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    say('Starting…', false);
    request('POST', address, captureBody(form.elements.capture.value, form.elements.count.value,
      form.elements.within.value));
  });
  for (const button of section.querySelectorAll('.capture-cancel')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      say('Cancelling…', false);
      request('DELETE', address + '?name=' + encodeURIComponent(button.dataset.name));
    });
  }
  form.hidden = false;
}
