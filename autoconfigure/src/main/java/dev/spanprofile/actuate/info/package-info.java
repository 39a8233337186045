/**
 * The profiler's contribution to the info endpoint.
 */
package dev.spanprofile.actuate.info;
