/**
 * Which span each thread runs, moment by moment: the hook on the tracer's context storage
 * records a change point per activation into a per-thread ring
 * ({@link dev.spanprofile.tracking.ThreadActivity}), and
 * {@link dev.spanprofile.tracking.MonotonicEpoch} pairs the monotonic clock those points
 * use with the wall clock.
 * <p>
 * Runs on every request thread of the host application: nothing here allocates per
 * activation. Imports no other spanprofile package.
 */
package dev.spanprofile.tracking;
