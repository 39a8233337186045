/**
 * Names of the peers a request waits on, from the application's own configuration (its
 * data sources' JDBC URLs).
 */
package dev.spanprofile.autoconfigure.peers;
