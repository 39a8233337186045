/**
 * Profile this request: a header that forces one request to be traced, profiled and kept,
 * and answers where its flame graph is.
 */
package dev.spanprofile.autoconfigure.ondemand;
