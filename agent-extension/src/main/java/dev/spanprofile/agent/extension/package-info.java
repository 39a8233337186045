/**
 * An extension of the OpenTelemetry Java agent: hooks on the agent's context storage and
 * tracer provider that report span activations, starts and ends to spanprofile in the
 * application, through the bridge on the bootstrap class path. Depends on the agent's
 * OpenTelemetry classes and the bridge only (no Spring, no spanprofile core).
 * <p>
 * On-demand profiling ({@code spanprofile.on-demand.*}) cannot force a request under the
 * agent: the agent's instrumentation starts a request's span, with the agent's sampler,
 * before any of the application's filters sees the request, and that sampler is not a
 * bean the starter can wrap. Forcing would take a sampler and a propagator of this
 * extension that read the header themselves; until then callers send a sampled
 * {@code traceparent} to an agent configured with a parent-based sampler.
 */
package dev.spanprofile.agent.extension;
