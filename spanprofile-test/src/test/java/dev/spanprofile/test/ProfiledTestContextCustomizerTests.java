package dev.spanprofile.test;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.support.TestPropertySourceUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a profiled test's settings stand among the context's properties, and when
 * contexts are shared.
 */
class ProfiledTestContextCustomizerTests {

	@ProfiledTest
	static class Defaults {

	}

	@ProfiledTest
	static class SameDefaults {

	}

	@ProfiledTest(event = { "cpu", "alloc" }, allocInterval = "64KB")
	static class WithAllocations {

	}

	@Test
	void aTestsOwnPropertiesWinOverItsProfilingSettingsWhichWinOverTheApplications() {
		GenericApplicationContext context = new GenericApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addLast(new MapPropertySource("application.yml",
					Map.of("spanprofile.interval", "10ms", "management.tracing.sampling.probability", "0.1")));
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME,
					Map.of("spanprofile.interval", "5ms")));
		customizer(Defaults.class).customizeContext(context, null);
		assertThat(context.getEnvironment().getProperty("spanprofile.interval")).isEqualTo("5ms");
		assertThat(context.getEnvironment().getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
		assertThat(context.getEnvironment().getProperty("spanprofile.event")).isEqualTo("cpu");
		assertThat(context.getEnvironment().getProperty("spring.test.observability.auto-configure")).isEqualTo("true");
		assertThat(context.getEnvironment().getProperty("management.otlp.metrics.export.enabled")).isEqualTo("false");
	}

	@Test
	void equalSettingsShareAContextAndOthersDoNot() {
		assertThat(customizer(Defaults.class)).isEqualTo(customizer(SameDefaults.class))
			.hasSameHashCodeAs(customizer(SameDefaults.class))
			.isNotEqualTo(customizer(WithAllocations.class));
		assertThat(customizer(WithAllocations.class).properties()).containsEntry("spanprofile.event", "cpu,alloc")
			.containsEntry("spanprofile.alloc-interval", "64KB");
		// On-demand profiling with one random token per JVM: contexts are still shared.
		assertThat(customizer(Defaults.class).properties()).containsEntry("spanprofile.on-demand.enabled", "true")
			.containsEntry("spanprofile.on-demand.token", ProfiledTestContextCustomizer.ON_DEMAND_TOKEN);
		assertThat(ProfiledTestContextCustomizer.ON_DEMAND_TOKEN).hasSizeGreaterThan(30);
		assertThat(new ProfiledTestContextCustomizerFactory().createContextCustomizer(Object.class, null)).isNull();
	}

	private static ProfiledTestContextCustomizer customizer(Class<?> testClass) {
		return (ProfiledTestContextCustomizer) new ProfiledTestContextCustomizerFactory()
			.createContextCustomizer(testClass, null);
	}

}
