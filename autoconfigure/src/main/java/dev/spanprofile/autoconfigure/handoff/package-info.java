/**
 * Work that an application hands to another thread ({@code @Async}, Spring Boot's
 * scheduler, Reactor's schedulers) keeps its request's span: where the application has
 * not chosen otherwise, the starter turns on Spring Boot's context propagation for them,
 * and says at startup what it turned on, or what the application's own choice costs its
 * graphs.
 */
package dev.spanprofile.autoconfigure.handoff;
