package dev.spanprofile.test;

/**
 * Code a test runs to make traced requests: a {@code MockMvc} call, a
 * {@code WebTestClient} exchange, a call to a traced bean. May throw whatever the client
 * it calls throws.
 */
@FunctionalInterface
public interface TracedWork {

	void run() throws Exception;

}
