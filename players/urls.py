from django.urls import path

from players import views

urlpatterns = [
    path("settings/", views.settings, name="account-settings"),
    path("delete/", views.delete, name="account-delete"),
]
