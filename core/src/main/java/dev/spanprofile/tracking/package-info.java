/**
 * Which span each thread runs, moment by moment: the hook on the tracer's context storage
 * records a change point per activation into a per-thread ring
 * ({@link dev.spanprofile.tracking.ThreadActivity}); the engine's one clock
 * ({@link dev.spanprofile.tracking.NanoClock}, the monotonic clock those points use), and
 * {@link dev.spanprofile.tracking.MonotonicEpoch}, which maps it to epoch time.
 * <p>
 * Runs on every request thread of the host application: nothing here allocates per
 * activation. Imports no other spanprofile package.
 */
package dev.spanprofile.tracking;
