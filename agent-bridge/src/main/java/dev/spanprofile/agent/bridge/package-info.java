/**
 * The JDK-only interface between spanprofile's OpenTelemetry Java agent extension and the
 * application: loaded once, from the bootstrap class path, by both. Imports nothing but
 * the JDK.
 */
package dev.spanprofile.agent.bridge;
