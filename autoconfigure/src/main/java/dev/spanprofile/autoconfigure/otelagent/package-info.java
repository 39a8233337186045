/**
 * Auto-configuration for applications traced by the OpenTelemetry Java agent: receives
 * the agent's span activations, starts and ends from spanprofile's agent extension
 * through the bridge on the bootstrap class path.
 */
package dev.spanprofile.autoconfigure.otelagent;
