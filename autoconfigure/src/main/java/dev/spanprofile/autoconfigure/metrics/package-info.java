/**
 * Auto-configuration of the profiler's and the exporters' meters.
 */
package dev.spanprofile.autoconfigure.metrics;
