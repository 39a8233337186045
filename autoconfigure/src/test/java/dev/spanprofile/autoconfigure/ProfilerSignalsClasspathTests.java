package dev.spanprofile.autoconfigure;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.health.SpanProfileHealthIndicator;
import dev.spanprofile.actuate.info.SpanProfileInfoContributor;
import dev.spanprofile.actuate.metrics.SpanProfileMetrics;
import dev.spanprofile.autoconfigure.health.SpanProfileHealthAutoConfiguration;
import dev.spanprofile.autoconfigure.info.SpanProfileInfoAutoConfiguration;
import dev.spanprofile.autoconfigure.metrics.SpanProfileMetricsAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** The profiler's signals with each web stack, and with the actuator left out. */
class ProfilerSignalsClasspathTests {

	private static final AutoConfigurations SIGNALS = AutoConfigurations.of(SpanProfileAutoConfiguration.class,
			SpanProfileMetricsAutoConfiguration.class, SpanProfileHealthAutoConfiguration.class,
			SpanProfileInfoAutoConfiguration.class, MetricsAutoConfiguration.class,
			SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class);

	@Test
	void reactiveApplicationWithoutServletApiGetsEverySignal() {
		new ReactiveWebApplicationContextRunner().withConfiguration(SIGNALS)
			.withClassLoader(new FilteredClassLoader("jakarta.servlet", "org.springframework.web.servlet"))
			.run((context) -> assertEverySignal(context));
	}

	@Test
	void servletApplicationWithoutWebFluxGetsEverySignal() {
		new WebApplicationContextRunner().withConfiguration(SIGNALS)
			.withClassLoader(new FilteredClassLoader("org.springframework.web.reactive", "reactor.core"))
			.run((context) -> assertEverySignal(context));
	}

	@Test
	void withoutTheActuatorOnlyMetricsRemain() {
		new ApplicationContextRunner().withConfiguration(SIGNALS)
			.withClassLoader(
					new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(SpanProfiler.class)
					.hasSingleBean(SpanProfileMetrics.class);
				assertThat(context).doesNotHaveBean("spanprofileHealthIndicator")
					.doesNotHaveBean(SpanProfileInfoContributor.class);
			});
	}

	private static void assertEverySignal(ApplicationContext context) {
		assertThat(context.getBeansOfType(SpanProfiler.class)).hasSize(1);
		assertThat(context.getBeansOfType(SpanProfileMetrics.class)).hasSize(1);
		assertThat(context.getBeansOfType(SpanProfileHealthIndicator.class)).hasSize(1);
		assertThat(context.getBeansOfType(SpanProfileInfoContributor.class)).hasSize(1);
	}

}
