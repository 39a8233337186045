package dev.spanprofile.test;

/**
 * The request header that asks a {@link ProfiledTest}'s application for one request's
 * profile ({@code spanprofile.on-demand}): add it to a request sent to a real server
 * ({@code @SpringBootTest(webEnvironment = RANDOM_PORT)}), and its response's
 * {@code Server-Timing} header names the request's span for
 * {@link SpanProfileAssertions#ofRequest(String)}. The value is the test context's token.
 *
 * @param name the header's name, {@code spanprofile.on-demand.header}
 * @param value its value, the token
 */
public record ProfileHeader(String name, String value) {

	@Override
	public String toString() {
		// The value is a secret of the test's application: kept out of test reports.
		return "ProfileHeader[name=" + this.name + "]";
	}

}
