/**
 * A bounded queue of uploads on a thread of its own, retried with back-off, that never
 * blocks the application.
 * <p>
 * Imports no other spanprofile package.
 */
package dev.spanprofile.upload;
