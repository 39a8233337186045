/**
 * The application's start, profiled: Spring's {@code ApplicationStartup} steps become
 * {@link dev.spanprofile.startup.StartupStep}s with their own samples, from the moment
 * the environment is known to the moment the application is ready.
 */
package dev.spanprofile.autoconfigure.startup;
