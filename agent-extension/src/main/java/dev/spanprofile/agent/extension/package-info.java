/**
 * An extension of the OpenTelemetry Java agent: hooks on the agent's context storage and
 * tracer provider that report span activations, starts and ends to spanprofile in the
 * application, through the bridge on the bootstrap class path. Depends on the agent's
 * OpenTelemetry classes and the bridge only (no Spring, no spanprofile core).
 */
package dev.spanprofile.agent.extension;
