from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read", views.mark_read, name="notifications-read"),
    path("notifications/email", views.email, name="notifications-email"),
]
