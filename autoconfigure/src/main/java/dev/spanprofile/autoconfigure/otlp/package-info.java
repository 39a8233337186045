/**
 * Auto-configuration of the OTLP profiles export ({@code spanprofile.otlp.*}).
 */
package dev.spanprofile.autoconfigure.otlp;
