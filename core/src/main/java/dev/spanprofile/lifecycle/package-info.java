/**
 * A request's life as spans start and end: the processors that tell the store, the local roots whose profile waits to
 * be complete ({@link dev.spanprofile.lifecycle.CompletedRoots}), and the tracer-neutral entry point other tracers'
 * hooks call ({@link dev.spanprofile.lifecycle.SpanLifecycle}).
 * <p>
 * May import {@code aggregate}, {@code store} and {@code tracking}.
 */
package dev.spanprofile.lifecycle;
