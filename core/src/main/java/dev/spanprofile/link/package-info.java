/**
 * The link from a request's span to its flame graph, as an attribute trace viewers show.
 * <p>
 * Imports no other spanprofile package.
 */
package dev.spanprofile.link;
