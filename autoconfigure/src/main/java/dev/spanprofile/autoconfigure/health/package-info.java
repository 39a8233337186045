/**
 * Auto-configuration of the profiler's health indicator.
 */
package dev.spanprofile.autoconfigure.health;
