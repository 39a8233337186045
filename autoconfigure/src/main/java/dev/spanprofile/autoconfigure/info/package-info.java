/**
 * Auto-configuration of the profiler's info contribution.
 */
package dev.spanprofile.autoconfigure.info;
