/**
 * Auto-configuration of span profiling: the profiler and its span processor from
 * {@code spanprofile.*} properties, the activation hook installed before the first
 * context is touched, the endpoint's beans.
 */
package dev.spanprofile.autoconfigure;
