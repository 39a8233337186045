package dev.spanprofile.autoconfigure.health;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.health.Boot3HealthIndicator;
import dev.spanprofile.actuate.health.SpanProfileHealthIndicator;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * The {@code spanprofile} health contributor, switched off with
 * {@code management.health.spanprofile.enabled=false}. Spring Boot 4 moved the health API
 * to {@code org.springframework.boot.health}; each line gets its own small configuration,
 * conditional on its own package by name, so that neither loads on the other.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnBean(SpanProfiler.class)
public final class SpanProfileHealthAutoConfiguration {

	static final String BEAN_NAME = "spanprofileHealthIndicator";

	SpanProfileHealthAutoConfiguration() {
	}

	/**
	 * Boot 4. Boot's enablement condition sits one level down: its annotation is resolved
	 * only once this class's condition has found Boot 4's health API.
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

	/**
	 * Boot 4 has no {@code org.springframework.boot.actuate.health}: this one only ever
	 * matches on Boot 3.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
	@Conditional(OnEnabledHealthIndicatorCondition.class)
	@Import(Boot3HealthConfiguration.Registrar.class)
	static class Boot3HealthConfiguration {

		/**
		 * Registers the indicator with Boot 3's {@code HealthIndicator} as its type. This
		 * artifact compiles against Boot 4, so no {@code @Bean} method can declare that
		 * type, and Boot 3's health endpoint looks contributors up by type before
		 * creating them: a bean declared as {@code Object} would be missed.
		 */
		static class Registrar implements ImportBeanDefinitionRegistrar, BeanFactoryAware {

			private BeanFactory beanFactory;

			@Override
			public void setBeanFactory(BeanFactory beanFactory) {
				this.beanFactory = beanFactory;
			}

			@Override
			@SuppressWarnings("unchecked")
			public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
				if (registry.containsBeanDefinition(BEAN_NAME)) {
					return;
				}
				ClassLoader classLoader = SpanProfiler.class.getClassLoader();
				Class<Object> type = (Class<Object>) ClassUtils.resolveClassName(Boot3HealthIndicator.HEALTH_INDICATOR,
						classLoader);
				registry.registerBeanDefinition(BEAN_NAME, new RootBeanDefinition(type,
						() -> Boot3HealthIndicator.create(this.beanFactory.getBean(SpanProfiler.class), classLoader)));
			}

		}

	}

}
