/**
 * Auto-configuration of the Pyroscope export ({@code spanprofile.pyroscope.*}), whose
 * agent then owns the JVM's one profiler.
 */
package dev.spanprofile.autoconfigure.pyroscope;
