/**
 * The engine's entry point: {@link dev.spanprofile.SpanProfiler} wires the activation
 * hook, a sampling engine, the join, the store and the span-name aggregates together, and
 * gives access to them; starting and stopping is
 * {@link dev.spanprofile.lifecycle.Sampling}'s.
 * <p>
 * May import every package below it; nothing in core imports it but {@code view}.
 */
package dev.spanprofile;
