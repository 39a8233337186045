/**
 * The application's start as a tree of steps
 * ({@link dev.spanprofile.startup.StartupStep}), each active on its thread while it runs
 * so that samples taken meanwhile are its own, kept in a
 * {@link dev.spanprofile.startup.StartupRecording} bounded in steps and bytes.
 * <p>
 * Knows nothing of Spring: the Spring adapter turns {@code ApplicationStartup} steps into
 * these. The first request of each name after the start is kept apart
 * ({@link dev.spanprofile.startup.FirstRequests}).
 * <p>
 * May import {@code attribution} (the activity it implements), {@code profile},
 * {@code store} (the requests it keeps) and {@code tracking}.
 */
package dev.spanprofile.startup;
