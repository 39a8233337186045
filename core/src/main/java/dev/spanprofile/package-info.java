/**
 * The engine's entry point: {@link dev.spanprofile.SpanProfiler} wires the activation hook, a sampling engine, the
 * join, the store and the span-name aggregates together, and starts and stops them.
 * <p>
 * May import every package below it; nothing in core imports it but {@code view}.
 */
package dev.spanprofile;
