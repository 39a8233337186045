package dev.spanprofile.autoconfigure.health;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.health.Boot3HealthIndicator;
import dev.spanprofile.actuate.health.SpanProfileHealthIndicator;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code spanprofile} health contributor, switched off with {@code management.health.spanprofile.enabled=false}.
 * Spring Boot 4 moved the health API to {@code org.springframework.boot.health}; each line gets its own small
 * configuration, conditional on its own package by name, so that neither loads on the other.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnBean(SpanProfiler.class)
public final class SpanProfileHealthAutoConfiguration {

	static final String BEAN_NAME = "spanprofileHealthIndicator";

	SpanProfileHealthAutoConfiguration() {
	}

	/**
	 * Boot 4. Boot's enablement condition sits one level down: its annotation is resolved only once this class's
	 * condition has found Boot 4's health API.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class Boot4HealthConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnEnabledHealthIndicator("spanprofile")
		static class EnabledHealthConfiguration {

			@Bean(BEAN_NAME)
			@ConditionalOnMissingBean(name = BEAN_NAME)
			SpanProfileHealthIndicator spanprofileHealthIndicator(SpanProfiler spanProfiler) {
				return new SpanProfileHealthIndicator(spanProfiler);
			}

		}

	}

	/** Boot 4 has no {@code org.springframework.boot.actuate.health}: this one only ever matches on Boot 3. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
	@Conditional(OnEnabledHealthIndicatorCondition.class)
	static class Boot3HealthConfiguration {

		@Bean(BEAN_NAME)
		@ConditionalOnMissingBean(name = BEAN_NAME)
		Object spanprofileHealthIndicator(SpanProfiler spanProfiler) {
			return Boot3HealthIndicator.create(spanProfiler, SpanProfiler.class.getClassLoader());
		}

	}

}
