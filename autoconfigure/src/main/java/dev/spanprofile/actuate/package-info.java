/**
 * The {@code spanprofile} actuator endpoint: HTTP operations, parameter binding, content
 * negotiation and the page headers; what it shows comes from core's {@code view} package.
 */
package dev.spanprofile.actuate;
