/**
 * Sampling switched on and off ({@link dev.spanprofile.lifecycle.Sampling}: the order of
 * a start and a stop, and the switches that act while it runs), and a request's life as
 * spans start and end: the processors that tell the store, the tracer-neutral entry point
 * other tracers' hooks call ({@link dev.spanprofile.lifecycle.SpanLifecycle}), and the
 * collector, one worker thread that joins samples and completes profiles and for whom
 * readers wait ({@link dev.spanprofile.lifecycle.Collector}, whose javadoc is the order
 * of a collection), its one deadline ({@code CollectorClock}) and every time it goes by
 * ({@link dev.spanprofile.lifecycle.CollectorSettings}).
 * <p>
 * May import {@code aggregate}, {@code attribution}, {@code profile}, {@code sampling},
 * {@code store} and {@code tracking}.
 */
package dev.spanprofile.lifecycle;
