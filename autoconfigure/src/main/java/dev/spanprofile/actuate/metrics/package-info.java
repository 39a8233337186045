/**
 * Meters of the profiler (spans stored, samples joined, collection cycles) and of the
 * exports.
 */
package dev.spanprofile.actuate.metrics;
