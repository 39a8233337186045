/**
 * The bounded store of spans and their samples:
 * {@link dev.spanprofile.store.SpanProfileStore} indexes requests by span id;
 * {@link dev.spanprofile.store.RetentionBudget} decides which leave to keep it within
 * {@code max-spans} and {@code max-memory}: the oldest finished ones first, the slowest
 * and failed ones kept within half of both; what becomes of a request once it ended
 * (awaiting its samples, complete and handed to the listeners, or dropped) is
 * {@link dev.spanprofile.store.FinishedRequests}'s state machine. A span's CPU time,
 * measured or counted from samples, is chosen in one place:
 * {@link dev.spanprofile.store.SpanCpuTime}, whose
 * {@link dev.spanprofile.store.SpanCpuTime.Measured} values are what a request's local
 * root holds of its threads' clocks.
 * <p>
 * May import {@code profile} and {@code tracking} (the engine's clock:
 * {@link dev.spanprofile.tracking.NanoClock}).
 */
package dev.spanprofile.store;
