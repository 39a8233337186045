package dev.spanprofile.autoconfigure.info;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.info.SpanProfileInfoContributor;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;

import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@code spanprofile} in {@code /actuator/info}, switched off with
 * {@code management.info.spanprofile.enabled=false}. {@code InfoContributor} and its
 * condition kept their packages from Boot 3 to Boot 4.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.info.InfoContributor")
@ConditionalOnBean(SpanProfiler.class)
public final class SpanProfileInfoAutoConfiguration {

	SpanProfileInfoAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnEnabledInfoContributor("spanprofile")
	SpanProfileInfoContributor spanProfileInfoContributor(SpanProfiler spanProfiler) {
		return new SpanProfileInfoContributor(spanProfiler);
	}

}
