package dev.spanprofile.test;

/**
 * The entry points of profile assertions in a {@link ProfiledTest}: <pre class="code">
 * mockMvc.perform(get("/checkout")).andExpect(status().isOk());
 * assertThatProfile(ofLastRequest()).cpuShareUnder("com.fasterxml.jackson").isAtMost(0.1);
 *
 * assertThatProfile(repeat(20, () -&gt; mockMvc.perform(get("/checkout")))).allocatedBytes().isAtMost(2_000_000);
 * </pre> Each waits until the profile of the requests is complete (every sample up to
 * their end joined), at most 15 s.
 */
public final class SpanProfileAssertions {

	private SpanProfileAssertions() {
	}

	public static ProfileAssert assertThatProfile(RequestProfile profile) {
		return new ProfileAssert(profile);
	}

	/**
	 * The start of the application context the test runs in, step by step:
	 * {@code assertThatStartup().step("spring.beans.instantiate", "ownerRepository").ownMillis().isAtMost(200)}.
	 */
	public static StartupAssert assertThatStartup() {
		return new StartupAssert(SpanProfileExtension.current().profiler());
	}

	/** The newest request (local root span) that started since the test began. */
	public static RequestProfile ofLastRequest() {
		return SpanProfileExtension.current().lastRequest();
	}

	/**
	 * The header that asks the test's application for one request's profile: for a
	 * request to a real server ({@code webEnvironment = RANDOM_PORT}), sent with
	 * {@code RestClient} or {@code WebTestClient}. <pre class="code">
	 * ProfileHeader header = profileHeader();
	 * ResponseEntity&lt;String&gt; response = restClient.get().uri("/checkout/42")
	 *     .header(header.name(), header.value()).retrieve().toEntity(String.class);
	 * assertThatProfile(ofRequest(response.getHeaders().getFirst("Server-Timing"))).cpuShareUnder(…);
	 * </pre>
	 */
	public static ProfileHeader profileHeader() {
		return SpanProfileExtension.current().profileHeader();
	}

	/**
	 * The request a response's {@code Server-Timing} header names
	 * ({@code spanprofile;desc="<spanId>"}; a bare span id is taken too), once its
	 * profile is complete. Unlike {@link #ofLastRequest()} it is the very request sent,
	 * whatever else the server was doing.
	 */
	public static RequestProfile ofRequest(String serverTiming) {
		return SpanProfileExtension.current().request(serverTiming);
	}

	/** Every request that started while {@code work} ran, merged into one profile. */
	public static RequestProfile ofRequestsIn(TracedWork work) {
		return SpanProfileExtension.current().requestsIn(work, "the requests of the block");
	}

	/**
	 * Run {@code request} {@code times} times and merge the profiles of every request
	 * they made: a request too short for enough samples gets them from its repetitions.
	 */
	public static RequestProfile repeat(int times, TracedWork request) {
		if (times < 1) {
			throw new IllegalArgumentException("times must be at least 1, was " + times);
		}
		return SpanProfileExtension.current().requestsIn(() -> {
			for (int i = 0; i < times; i++) {
				request.run();
			}
		}, times + " repetitions");
	}

}
