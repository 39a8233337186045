package dev.spanprofile.autoconfigure.health;

import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.actuate.health.SpanProfileHealthIndicator;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileHealthAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SpanProfileAutoConfiguration.class, SpanProfileHealthAutoConfiguration.class));

	@Test
	void shouldSupplyAHealthIndicatorThatReportsTheEngine() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(SpanProfileHealthIndicator.class);
			assertThat(context).hasBean("spanprofileHealthIndicator");
			Health health = context.getBean(SpanProfileHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(health.getDetails()).containsEntry("engine", profiler.status().engine())
				.containsEntry("event", profiler.status().event())
				.containsKey("state");
			// Running, or (where this machine cannot sample) failed with the reason:
			// never silently neither.
			if (profiler.status().running()) {
				assertThat(health.getDetails()).containsEntry("state", "running").doesNotContainKey("problem");
			}
			else {
				assertThat(health.getDetails()).containsEntry("state", "failed")
					.containsEntry("problem", profiler.status().problem());
			}
		});
	}

	@Test
	void shouldStayUpAndShowTheProblemWhenTheEngineCannotRun() {
		this.contextRunner.withUserConfiguration(UnavailableProfilerConfiguration.class).run((context) -> {
			Health health = context.getBean(HealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsAllEntriesOf(Map.of("engine", "async-profiler", "event", "cpu",
					"state", "failed", "problem", UnavailableEngine.REASON));
		});
	}

	@Test
	void shouldReportAStoppedProfiler() {
		this.contextRunner.run((context) -> {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			profiler.stop();
			Health health = context.getBean(SpanProfileHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			String expected = profiler.status().problem().equals("stopped") ? "stopped" : "failed";
			assertThat(health.getDetails()).containsEntry("state", expected);
		});
	}

	@Test
	void shouldNotSupplyAHealthIndicatorWhenDisabled() {
		this.contextRunner.withPropertyValues("management.health.spanprofile.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("spanprofileHealthIndicator")
				.hasSingleBean(SpanProfiler.class));
		this.contextRunner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("spanprofileHealthIndicator"));
		this.contextRunner
			.withPropertyValues("management.health.defaults.enabled=false",
					"management.health.spanprofile.enabled=true")
			.run((context) -> assertThat(context).hasBean("spanprofileHealthIndicator"));
	}

	@Test
	void shouldBackOffOnAUserHealthIndicatorOfTheSameName() {
		this.contextRunner.withUserConfiguration(CustomHealthIndicatorConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean(SpanProfileHealthIndicator.class);
			assertThat(context.getBean("spanprofileHealthIndicator", HealthIndicator.class).health().getStatus())
				.isEqualTo(Status.OUT_OF_SERVICE);
		});
	}

	@Test
	void shouldNotSupplyAHealthIndicatorWithoutBootsHealthApi() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SpanProfiler.class)
				.doesNotHaveBean("spanprofileHealthIndicator"));
	}

	@Test
	void shouldNotSupplyAHealthIndicatorWithoutAProfiler() {
		this.contextRunner.withPropertyValues("spanprofile.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("spanprofileHealthIndicator"));
	}

	/**
	 * The Boot 3 configuration's stand-in for Boot's annotation, which Boot 4 moved out
	 * of reach.
	 */
	@Test
	void boot3ConditionFollowsTheSamePropertiesAsBootsAnnotation() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withUserConfiguration(ConditionalConfiguration.class);
		runner.run((context) -> assertThat(context).hasBean("marker"));
		runner.withPropertyValues("management.health.spanprofile.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("marker"));
		runner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("marker"));
		runner
			.withPropertyValues("management.health.defaults.enabled=false",
					"management.health.spanprofile.enabled=true")
			.run((context) -> assertThat(context).hasBean("marker"));
	}

	@Configuration(proxyBeanMethods = false)
	static class UnavailableProfilerConfiguration {

		@Bean
		SpanProfiler unavailableProfiler() {
			return new SpanProfiler(SpanProfilerSettings.defaults(), (frames) -> new UnavailableEngine());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomHealthIndicatorConfiguration {

		@Bean
		HealthIndicator spanprofileHealthIndicator() {
			return () -> Health.outOfService().build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(OnEnabledHealthIndicatorCondition.class)
	static class ConditionalConfiguration {

		@Bean
		String marker() {
			return "marker";
		}

	}

}
