import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureBody, endpointAddress, failureText }
  from '../../main/resources/dev/spanprofile/render/html/spans/captures.mjs';

// The span list's capture form without its page: what it posts, and what it says when the endpoint refuses.

test('a whole count goes as a number, anything else as typed for the endpoint to name', () => {
  assert.deepEqual(captureBody(' http get /burn ', ' 20 ', ' 10m '),
    { capture: 'http get /burn', count: 20, within: '10m' });
  assert.deepEqual(captureBody('/owners/**', '-5', '1m'), { capture: '/owners/**', count: '-5', within: '1m' });
  assert.deepEqual(captureBody('x', 'many', ''), { capture: 'x', count: 'many', within: '' });
  // Beyond what a number holds exactly: as typed.
  assert.equal(captureBody('x', '12345678901234567890', '1m').count, '12345678901234567890');
});

test('a refusal shows the endpoint message, else what its status means', () => {
  assert.equal(failureText(400, '{"status":400,"error":"Bad Request","message":"count must be a whole number"}'),
    'count must be a whole number');
  assert.match(failureText(403, '<html>Forbidden</html>'), /^Refused \(403\): .*CSRF/);
  assert.match(failureText(401, ''), /^Refused \(401\)/);
  assert.match(failureText(405, '{}'), /read-only/);
  assert.equal(failureText(502, 'Bad gateway'), 'Failed (502).');
});

test('the endpoint is the list own address without its query', () => {
  assert.equal(endpointAddress({ pathname: '/app/actuator/spanprofile', search: '?name=burn' }),
    '/app/actuator/spanprofile');
});
