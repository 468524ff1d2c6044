/* keeps the support library non-empty */
typedef int smfw_test_support_empty;
