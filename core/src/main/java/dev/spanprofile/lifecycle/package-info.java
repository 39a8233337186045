/**
 * Sampling switched on and off ({@link dev.spanprofile.lifecycle.Sampling}: the order of
 * a start and a stop, and the switches that act while it runs), and a request's life as
 * spans start and end: the processors that tell the store, the tracer-neutral entry point
 * other tracers' hooks call ({@link dev.spanprofile.lifecycle.SpanLifecycle}), the
 * collection cycle that joins samples and completes profiles
 * ({@link dev.spanprofile.lifecycle.CollectionCycle}, whose javadoc is the order of a
 * cycle), run by one worker, the collector thread, for whom readers wait, and every time
 * it goes by ({@link dev.spanprofile.lifecycle.CollectorSettings}).
 * <p>
 * May import {@code aggregate}, {@code attribution}, {@code profile}, {@code sampling},
 * {@code store} and {@code tracking}.
 */
package dev.spanprofile.lifecycle;
