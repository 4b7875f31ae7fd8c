-- Reserved for issue 20; replaced by the change that needs it.
SELECT 1;
