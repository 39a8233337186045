/**
 * The join: a sample taken on a thread at a time belongs to the span that thread ran then
 * ({@link dev.spanprofile.attribution.SampleAttributor} over per-thread
 * {@link dev.spanprofile.attribution.ThreadTimeline}s, whose change points also measure
 * each thread's CPU clock and run-queue wait across the requests it works for).
 * <p>
 * May import {@code profile}, {@code sampling} (the sink it implements), {@code store}
 * (where joined samples go) and {@code tracking}.
 */
package dev.spanprofile.attribution;
