/**
 * Auto-configuration for applications traced with Brave: a scope decorator that reports
 * activations and a span handler that reports starts and ends.
 */
package dev.spanprofile.autoconfigure.brave;
