/**
 * One log line per slow request, once its profile is complete: duration, where the time
 * went, the hottest methods and the path of its flame graph.
 * <p>
 * May import {@code profile}, {@code render} and {@code store}.
 */
package dev.spanprofile.slowlog;
