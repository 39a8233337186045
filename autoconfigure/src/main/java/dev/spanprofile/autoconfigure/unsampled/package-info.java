/**
 * Auto-configuration for requests that tracing did not sample: an observation handler
 * that tells the profiler when they start, which threads work for them and what they are
 * called when they end.
 */
package dev.spanprofile.autoconfigure.unsampled;
