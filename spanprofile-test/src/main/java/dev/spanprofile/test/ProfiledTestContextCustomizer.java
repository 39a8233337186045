package dev.spanprofile.test;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * The properties a {@link ProfiledTest} context runs with, as a property source just
 * below the test's own inlined properties: they win over the application's configuration
 * files, and a test's {@code @SpringBootTest(properties)} wins over them. Equal settings
 * make equal customizers, so that such test classes share a cached context.
 */
final class ProfiledTestContextCustomizer implements ContextCustomizer {

	static final String PROPERTY_SOURCE_NAME = "spanprofileTestProperties";

	/**
	 * Collections run when a test asks for a profile; the collector's own ones rarely.
	 * async-profiler drops the events recorded while it writes a chunk, so a collection
	 * in the middle of a request would cost it samples.
	 */
	private static final String DUMP_INTERVAL = "10s";

	/**
	 * The on-demand token of this JVM's tests: random, so that an application's test
	 * context never answers a header it did not hand out; one per JVM, so that test
	 * classes with equal settings still share a context.
	 */
	static final String ON_DEMAND_TOKEN = java.util.UUID.randomUUID().toString();

	private final Map<String, Object> properties;

	private ProfiledTestContextCustomizer(Map<String, Object> properties) {
		this.properties = properties;
	}

	static ProfiledTestContextCustomizer of(ProfiledTest profiled) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("management.tracing.sampling.probability", "1.0");
		// Spring Boot 3.5 turns tracing off in tests unless this is set (later lines have
		// no such switch).
		properties.put("spring.test.observability.auto-configure", "true");
		properties.put("spanprofile.enabled", "true");
		properties.put("spanprofile.interval", profiled.interval());
		properties.put("spanprofile.event", String.join(",", profiled.event()));
		if (!profiled.allocInterval().isBlank()) {
			properties.put("spanprofile.alloc-interval", profiled.allocInterval());
		}
		properties.put("spanprofile.dump-interval", DUMP_INTERVAL);
		// A request of a real server (RANDOM_PORT) sent with ProfileHeader is forced and
		// names its span in Server-Timing, so ofRequest finds it among concurrent ones.
		properties.put("spanprofile.on-demand.enabled", "true");
		properties.put("spanprofile.on-demand.token", ON_DEMAND_TOKEN);
		properties.put("spanprofile.on-demand.max-per-minute", "100000");
		// OpenTelemetry's starter exports metrics over OTLP by default: with no receiver
		// beside a test, every run ends with a warning that publishing failed.
		properties.put("management.otlp.metrics.export.enabled", "false");
		return new ProfiledTestContextCustomizer(properties);
	}

	Map<String, Object> properties() {
		return this.properties;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		MutablePropertySources sources = context.getEnvironment().getPropertySources();
		MapPropertySource ours = new MapPropertySource(PROPERTY_SOURCE_NAME, this.properties);
		if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, ours);
		}
		else {
			sources.addFirst(ours);
		}
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof ProfiledTestContextCustomizer customizer)
				&& this.properties.equals(customizer.properties);
	}

	@Override
	public int hashCode() {
		return this.properties.hashCode();
	}

}
