/**
 * The profiler's health: which engine samples, and why it does not when it does not.
 */
package dev.spanprofile.actuate.health;
